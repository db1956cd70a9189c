default --snapshot --source no-such-folder
