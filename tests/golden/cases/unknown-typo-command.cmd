analyse default
