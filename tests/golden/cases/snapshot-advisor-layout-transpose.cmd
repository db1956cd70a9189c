transpose-naive --snapshot --keys xvs
