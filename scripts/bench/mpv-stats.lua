-- Loaded by scripts/bench with --script: writes mpv's dropped-frame counters to the file
-- named by $MV_BENCH_STATS when the player shuts down, one "name value" line each.
local counters = {}
for _, name in ipairs({"frame-drop-count", "decoder-frame-drop-count", "vo-delayed-frame-count"}) do
    counters[name] = 0
    mp.observe_property(name, "number", function(_, v) if v then counters[name] = v end end)
end
mp.register_event("shutdown", function()
    local path = os.getenv("MV_BENCH_STATS")
    if not path then return end
    local f = io.open(path, "w")
    if not f then return end
    for name, v in pairs(counters) do f:write(name, " ", string.format("%d", v), "\n") end
    f:close()
end)
