kernel default
