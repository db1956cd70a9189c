sweep work-limit.json
