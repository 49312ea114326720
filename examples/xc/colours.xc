| A small instance with coloured secondary items: the primary items a, b, c
| must each be covered once; x and y may be shared by options that give
| them the same colour. Three solutions: {a x:1, b c x:1}, {a b, c y} and
| {b x:2, a c x:2 y}; {a x:1, b x:2, ...} is not one (x gets two colours).
a b c | x y
a x:1
b c x:1
b x:2
c y
a b
a c x:2 y
