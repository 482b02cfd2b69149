import Glibc
import ViewerProgram

// The program is a thin shell: its policy lives in ViewerProgram, the viewer in Viewer.
exit(ViewerApp.main(arguments: ViewerApp.systemArguments))
