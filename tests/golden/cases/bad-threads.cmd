analyze bad-threads.json
