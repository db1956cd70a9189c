analyze bad-dup-lesson.json
