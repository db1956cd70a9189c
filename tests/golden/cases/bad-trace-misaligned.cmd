analyze bad-trace-misaligned.json
