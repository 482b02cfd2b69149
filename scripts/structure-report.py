#!/usr/bin/env python3
"""Measures the shape rules the code keeps, so a newcomer's house stays readable.

  scripts/structure-report.py [ROOT]       prints the figures and every breach
  scripts/structure-report.py --check      the same, exit 1 on a breach (make test)

Rules: a class or actor holds at most 20 stored properties; a function is at most
60 lines; a file's main type is the one its name starts with; nothing outside
MediaView reaches into its `session` or `settings`.
"""
import os, re, sys

MAX_STORED = 20
MAX_FUNC_LINES = 60
DECL = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|private|fileprivate|package|open|final|nonisolated|indirect)\s+)*'
                  r'(class|struct|enum|protocol|actor|extension)\s+([A-Za-z_][A-Za-z0-9_.]*)')
FUNC = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|private|fileprivate|package|open|final|static|class|override|mutating|nonmutating|nonisolated|convenience|required|@discardableResult)\s+)*'
                  r'(func\s+[^\s(<]+|init[?!]?|deinit)\b')
STORED = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|private|fileprivate|package|open|final|weak|unowned(?:\(\w+\))?|lazy|nonisolated(?:\(unsafe\))?|private\(set\)|public\(set\)|fileprivate\(set\)|internal\(set\))\s+)*(var|let)\s+\w+')

def strip(line):
    """The line without strings and comments, for brace counting."""
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    return line.split('//')[0]

def swift_files(root, folders):
    for folder in folders:
        for base, _, names in os.walk(os.path.join(root, folder)):
            for n in sorted(names):
                if n.endswith('.swift'):
                    yield os.path.join(base, n)

def analyse(path):
    lines = open(path, encoding='utf-8', errors='replace').read().split('\n')
    depth = 0
    in_block_comment = False
    in_multiline_string = False
    types = []      # (kind, name, line, stored count)
    stack = []      # open scopes: (kind, name, depth_at_open, start_line, record)
    funcs = []      # (name, start, length)
    pending = None
    for i, raw in enumerate(lines, 1):
        if in_multiline_string:
            if '"""' in raw: in_multiline_string = False
            continue
        if raw.count('"""') % 2 == 1:
            in_multiline_string = True
            raw = raw.split('"""')[0]
        line = raw
        if in_block_comment:
            if '*/' in line: in_block_comment = False; line = line.split('*/', 1)[1]
            else: continue
        if '/*' in line and '*/' not in line:
            in_block_comment = True; line = line.split('/*', 1)[0]
        code = strip(line)
        m = DECL.match(code)
        f = FUNC.match(code)
        top = stack[-1] if stack else None
        if top and top[0] in ('class', 'actor') and depth == top[2] + 1 and not f and not m:
            s = STORED.match(code)
            if s and not re.search(r'\bstatic\b|\bclass\s+(var|let)', code):
                # A computed property has a body that is not a closure value: `var x: T {`.
                computed = re.search(r'\bvar\b[^=]*\{\s*(get|set|$|[^}]*\breturn\b|\w)', code) and '=' not in code.split('{')[0]
                if not computed:
                    top[4][3] += 1
        opens, closes = code.count('{'), code.count('}')
        if m and '{' in code:
            rec = [m.group(1), m.group(2), i, 0]
            types.append(rec)
            stack.append((m.group(1), m.group(2), depth, i, rec))
        elif f and '{' in code:
            stack.append(('func', f.group(1), depth, i, None))
        elif (m or f) and '{' not in code:
            pending = (m.group(1) if m else 'func', (m.group(2) if m else f.group(1)), depth, i,
                       [m.group(1), m.group(2), i, 0] if m else None)
        elif pending and '{' in code:
            stack.append(pending)
            if pending[4]: types.append(pending[4])
            pending = None
        depth += opens - closes
        while stack and depth <= stack[-1][2]:
            kind, name, d, start, rec = stack.pop()
            if rec is not None: rec.append(i - start + 1)
            if kind == 'func':
                funcs.append((name, start, i - start + 1))
    return types, funcs

def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    check = '--check' in sys.argv
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    breaches = []
    big_types, long_funcs, misnamed = [], [], []
    files = list(swift_files(root, ['Sources']))
    for path in files:
        rel = os.path.relpath(path, root)
        types, funcs = analyse(path)
        for kind, name, line, stored, *_ in types:
            if kind in ('class', 'actor') and stored > MAX_STORED:
                big_types.append(f'{rel}:{line}: {kind} {name} has {stored} stored properties (at most {MAX_STORED})')
        for name, start, length in funcs:
            if length > MAX_FUNC_LINES:
                long_funcs.append(f'{rel}:{start}: {name} is {length} lines (at most {MAX_FUNC_LINES})')
        base = os.path.basename(path)[:-6]
        main_name = base.split('+')[0]
        # The main type is the one most lines are about; small helpers may stand beside it.
        sizes = {}
        for t in types:
            if len(t) > 4: sizes[t[1].split('.')[0]] = sizes.get(t[1].split('.')[0], 0) + t[4]
        if sizes and main_name != 'main':
            biggest = max(sizes, key=sizes.get)
            if sizes.get(main_name, 0) * 2 < sum(sizes.values()) and biggest != main_name:
                misnamed.append(f'{rel}: mostly about {biggest}, not {main_name}')
    # Reaches into MediaView's internals from other files.
    reach = re.compile(r'(?<![A-Za-z_])(?:view|v|owner|presented|current|\$0|it)\??\.(?:session|settings)\b')
    reaches, reach_files = 0, set()
    for path in files:
        if os.path.basename(path).startswith('MediaView'): continue
        if not any(m in path for m in ('/Viewer/', '/ViewerProgram/', '/MPRIS/')): continue
        for line in open(path, encoding='utf-8', errors='replace'):
            n = len(reach.findall(strip(line)))
            if n: reaches += n; reach_files.add(os.path.relpath(path, root))
    print(f'files: {len(files)}; classes/actors over {MAX_STORED} stored properties: {len(big_types)}; '
          f'functions over {MAX_FUNC_LINES} lines: {len(long_funcs)}; files named for another type: {len(misnamed)}; '
          f'reaches into a MediaView\'s session or settings: {reaches} from {len(reach_files)} files')
    for group in (big_types, long_funcs, misnamed):
        for b in group: print('  ' + b)
    for f in sorted(reach_files): print('  reaches into MediaView: ' + f)
    breaches = big_types + long_funcs + misnamed
    if check and (breaches or reaches):
        sys.exit(1)

main()
