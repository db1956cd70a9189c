no-such-pattern
