analyze struct-mixed
