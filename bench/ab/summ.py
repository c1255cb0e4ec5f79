"""summ.py LOG : the median wall and CPU per version of an abba.sh log."""
import json,statistics as st,sys
d={}
for l in open(sys.argv[1]):
    t,j=l.split(" ",1); d.setdefault(t,[]).append(json.loads(j))
for t,v in d.items():
    print(t, "n", len(v), "wall med", round(st.median(x["wall"] for x in v),4), "cpu med", round(st.median(x["cpu"] for x in v),4), "cpu mean", round(st.mean(x["cpu"] for x in v),4))
