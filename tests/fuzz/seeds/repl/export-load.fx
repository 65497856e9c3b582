export fx g.graph.txt
export json g.json; export fxpy g.py
load g.graph.txt as a; load g.json as b; load g.py
use small; list; use a
export dot; export svg pic.svg
run --seed 3
