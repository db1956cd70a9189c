analyze default --json=1
