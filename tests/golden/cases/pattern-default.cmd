analyze default
