measure default
