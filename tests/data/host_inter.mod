m1 Main A B D
m2 G
