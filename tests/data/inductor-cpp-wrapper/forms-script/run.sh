#!/bin/bash
# Device job: capture C++/Python wrapper forms (forms.py) in parallel; pack into $OUT/forms.tgz.
cd "$(dirname "$0")"
python3 -c "import torch; print(torch.__version__, torch.cuda.get_device_name())"
D=/tmp/forms; mkdir -p $D
cases="$@"
for c in $cases; do
  ( timeout 400 python3 forms.py $D $c > $D/$c.log 2>&1; echo "$c rc $?" >> $D/$c.log ) &
  while [ $(jobs -r | wc -l) -ge 8 ]; do sleep 1; done
done
wait
tail -n 2 $D/*.log | cut -c1-600
tar czf $OUT/forms.tgz -C $D .
