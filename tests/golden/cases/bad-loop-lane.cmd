analyze bad-loop-lane.json
