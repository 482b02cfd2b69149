import ViewerProgram

// The program is a thin shell: its policy lives in ViewerProgram, the viewer in Viewer.
ViewerApp.end(with: ViewerApp.main(arguments: ViewerApp.systemArguments))
