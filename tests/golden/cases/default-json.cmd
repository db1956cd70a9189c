analyze default --json
