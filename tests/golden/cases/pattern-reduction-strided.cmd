analyze reduction-strided
