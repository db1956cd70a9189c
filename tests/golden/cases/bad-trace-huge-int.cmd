analyze bad-trace-huge-int.json
