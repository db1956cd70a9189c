record --help
