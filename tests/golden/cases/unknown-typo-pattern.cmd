transpos-naive
