module wirecost.dev/targets/known-cost/go

go 1.26.0
