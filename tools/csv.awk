# csv(line, f): splits one line of a CSV file into f[1..n] and returns n,
# by hand, since quoted fields hold commas. For the table scripts beside
# it: awk -f tools/csv.awk -f tools/SCRIPT.awk FILE...
function csv(line, f,    n, i, c, q, cur) {
    n = 0; cur = ""; q = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (c == "\"") q = !q
        else if (c == "," && !q) { f[++n] = cur; cur = "" }
        else cur = cur c
    }
    f[++n] = cur
    return n
}
