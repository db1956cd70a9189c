analyze --summary -- default
