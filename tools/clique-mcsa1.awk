# Our nodes beside MCSa1's published colourings, for `make bench-clique`:
# awk -f tools/csv.awk -f tools/clique-mcsa1.awk bench-results/clique-mcsa1-published.csv bench-results/clique-dimacs.csv
# The first file gives the published figures by graph; of the second
# (hysolve-bench's CSV), the last 1x1 row of each graph is printed beside
# them. Fields are split by tools/csv.awk's csv(), given first with -f.
FNR == 1 { next }
NR == FNR { csv($0, p); colourings[p[1]] = p[3]; seconds[p[1]] = p[4]; next }
{
    csv($0, r)
    # commit, machine, cores, problem, ranks, threads, ..., median_s (9), ..., nodes (14)
    if (r[5] != 1 || r[6] != 1) next
    g = r[4]; sub(/.*\//, "", g); sub(/\.clq.*/, "", g)
    if (g in colourings) row[g] = sprintf("%-16s %14s nodes %9s s | MCSa1 (published, Xeon E5-4650 v2) %14s colourings %9s s", g, r[14], r[9], colourings[g], seconds[g])
}
END { for (g in row) print row[g] }
