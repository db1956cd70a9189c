list --names
