sweep default --all
