analyze legacy-stride17
