analyze default --help
