analyze default --help | head -n 2
