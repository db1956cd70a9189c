analyze tensor-misaligned.json
