analyze bad-work-maxima.json --summary
