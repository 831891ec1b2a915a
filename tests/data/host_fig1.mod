# Table 1 of seed paper 002
module1 Main funcA
module2 funcB funcC funcE
module3 funcD
module4 funcF
