analyze .
