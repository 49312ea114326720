# Our nodes and times beside CliSAT's steps and times, for `make bench-clisat`:
# awk -f tools/csv.awk -f tools/clique-clisat.awk bench-results/clique-clisat.csv
# Of hysolve-bench's CSV, the last row of each graph, binary and
# configuration is printed: ours on one thread (nodes, median s), on two
# (median s, and the speedup: one thread's median over two's), CliSAT in degree order (1) and colour order (2)
# (steps, median s), and CliSAT's better time over ours on one thread.
# Fields are split by tools/csv.awk's csv(), given first with -f.
FNR == 1 { next }
{
    csv($0, r)
    # commit 1, machine 2, problem 4, ranks 5, threads 6, median_s 9,
    # speedup 12, solutions 13, nodes 14, command 16
    g = r[4]; sub(/.*\//, "", g); sub(/\.clq.*/, "", g)
    if (r[16] ~ /CLISAT_ORDERING=2/) k = "c2"
    else if (r[16] ~ /clisat-json/) k = "c1"
    else k = "h" r[5] "x" r[6]
    s[g, k] = r[9]; n[g, k] = r[14]; om[g] = r[13]
    if (!(g in seen)) { seen[g] = 1; order[++graphs] = g }
    commit = r[1]; machine = r[2]
}
END {
    printf "commit %s, %s\n", commit, machine
    printf "%-16s %4s | %11s %8s | %8s %5s | %9s %8s | %9s %8s | %s\n", "graph", "w", "our nodes", "1x1 s", "1x2 s", "x", "CliSAT-1", "s", "CliSAT-2", "s", "best CliSAT s / ours"
    for (i = 1; i <= graphs; i++) {
        g = order[i]
        best = s[g, "c1"]
        if (s[g, "c2"] != "" && (best == "" || s[g, "c2"] + 0 < best + 0)) best = s[g, "c2"]
        ratio = (best != "" && s[g, "h1x1"] > 0) ? sprintf("%.2f", best / s[g, "h1x1"]) : ""
        printf "%-16s %4s | %11s %8s | %8s %5s | %9s %8s | %9s %8s | %s\n", g, om[g], n[g, "h1x1"], s[g, "h1x1"], s[g, "h1x2"], (s[g, "h1x2"] > 0 ? sprintf("%.2f", s[g, "h1x1"] / s[g, "h1x2"]) : ""), n[g, "c1"], s[g, "c1"], n[g, "c2"], s[g, "c2"], ratio
    }
}
