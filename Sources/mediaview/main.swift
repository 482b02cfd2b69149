import Dispatch
import FoundationEssentials
import Glibc
import Viewer

// The program is a thin shell: everything it does lives in the Viewer library.
exit(ViewerApp.main(arguments: Array(CommandLine.arguments.dropFirst())))
