analyze conv3x3-34x34
