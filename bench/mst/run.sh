#!/usr/bin/env bash
# Reproduces the analytical results of "Modeling and Optimization of Straggling Mappers" with
# `mr model mst` and `mr model mst-optimal` (one command, a few seconds):
#   mm1     MST vs total arrival rate and vs number of heterogeneous M/M/1 mappers for fair,
#           pure-deterministic (dep) and pure-stochastic (sep, Eq. 23 as written: negative rates
#           where Eq. 24 fails, every node in the max) placement (paper Figs. 4, 6, 8, 10):
#           half low-performance nodes (service time 1.25, mu 0.8), half high (mu 1); beside
#           them the variant sep-clamp/drop (rates clamped at 0, idle nodes out of the max: the
#           model before issue 31) and Lemma 10's bounds around sep.
#   dtd     the same cluster with DTD mapper nodes (R_i = D lambda_i/mu_i + Exp(mu_i - lambda_i),
#           the paper's analytical DTD model, not a simulation) for D = 0.01 (memory-bound) and
#           D = 100 (CPU-bound), with M-EP, DM-EP (Eq. 38) and a numerical search for the least
#           MST added (Fig. 11 a-d): opt keeps every node working, opt-idle may leave a group idle
#           (and drops it from the max); and the clamp variants sep-clamp/drop, mep-clamp/drop.
#   gm1     G/M/1 nodes (Lemma 7): constant, Erlang-4 and H2 (scv 4) inter-arrival gaps, Algorithm
#           1's equilibrium (gm1) against fair, dep and sep-clamp on the same nodes.
#   knee    H_n / (mu - lambda/n) against n for mu = 1 and lambda = 2, 10, 20 (Lemma 11; Fig. 3b),
#           and Lemma 12's interpolation (Eq. 47 with Makowski-Varma's V_n) beside it,
#           and the heterogeneous knee of Fig. 13 (rates 1, 0.9, 0.8, 0.7 in equal numbers,
#           lambda = 10, D = 3.5, N = 40..200).
#   mix     the best count of LP (mu 1, price 400) and HP (mu 1.25, price 800) nodes for budgets
#           2000..40000 at lambda = 1, 5, 25 (Lemma 13; Figs. 14-16), spending the budget exactly
#           as the paper's Lemma 13 states; the variant at-most (<= budget) beside it.
# Writes CSVs, results.md (Markdown tables) and PNG plots (gnuplot, skipped if absent) to
# bench/mst/out/ (or $OUT), which it creates; it deletes nothing.
#   bench/mst/run.sh                     # MR_BIN defaults to build/cli/mr
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
MR_BIN=${MR_BIN:-$root/build/cli/mr}
if [[ ! -x $MR_BIN ]]; then
  echo "run.sh: MR_BIN=$MR_BIN is not an executable (build mr first, or set MR_BIN)" >&2
  exit 2
fi
out=${OUT:-$here/out}
mkdir -p "$out"

# Every placement, and the numerical search for the least MST (equal-mu nodes equal rates):
# opt keeps every node working (the paper's "non-negative optimal"), opt-idle may idle groups.
ALL=fair,dep,sep,mep,dmep,opt,opt-idle
# `model mst --csv` without its '#' line and header:
# lambda,placement,mst,method,working,min,max,rates,lemma10_lower,lemma10_upper
mst() { "$MR_BIN" model mst "$@" --csv | awk 'NR > 2'; }
# The clamp variants as the model was before issue 31: rates clamped at 0, idle nodes out of
# the max; their rows are named NAME/drop.
variants() { mst "$@" --idle-nodes drop | awk -F, -v OFS=, '{ $2 = $2 "/drop"; print }'; }

# --- M/M/1 (Figs. 4, 6, 8, 10) and DTD nodes (Fig. 11) ---------------------------------------
echo "x,placement,mst" > "$out/mm1_vs_lambda.csv"
mst --mu 50x0.8,50x1 --lambda 5:75:5 --placement fair,dep,sep | cut -d, -f1-3 >> "$out/mm1_vs_lambda.csv"
variants --mu 50x0.8,50x1 --lambda 5:75:5 --placement sep-clamp | cut -d, -f1-3 >> "$out/mm1_vs_lambda.csv"
echo "x,mst,lower,upper" > "$out/mm1_sep_bounds.csv"
mst --mu 50x0.8,50x1 --lambda 5:75:10 --placement sep | cut -d, -f1,3,9,10 >> "$out/mm1_sep_bounds.csv"
echo "x,placement,mst" > "$out/mm1_vs_nodes.csv"
for n in $(seq 40 20 200); do
  { mst --mu $((n / 2))x0.8,$((n / 2))x1 --lambda 20 --placement fair,dep,sep
    variants --mu $((n / 2))x0.8,$((n / 2))x1 --lambda 20 --placement sep-clamp; } |
    awk -F, -v n="$n" '{ print n "," $2 "," $3 }' >> "$out/mm1_vs_nodes.csv"
done
for d in 0.01 100; do
  echo "x,placement,mst" > "$out/dtd${d}_vs_lambda.csv"
  { mst --mu 50x0.8,50x1 --lambda 5:75:5 --d "$d" --placement $ALL
    variants --mu 50x0.8,50x1 --lambda 5:75:5 --d "$d" --placement sep-clamp,mep-clamp; } |
    cut -d, -f1-3 >> "$out/dtd${d}_vs_lambda.csv"
  echo "x,placement,mst" > "$out/dtd${d}_vs_nodes.csv"
  for n in $(seq 40 20 200); do
    { mst --mu $((n / 2))x0.8,$((n / 2))x1 --lambda 20 --d "$d" --placement $ALL
      variants --mu $((n / 2))x0.8,$((n / 2))x1 --lambda 20 --d "$d" --placement sep-clamp,mep-clamp; } |
      awk -F, -v n="$n" '{ print n "," $2 "," $3 }' >> "$out/dtd${d}_vs_nodes.csv"
  done
done
for a in det erlang:4 h2:4; do
  f=$out/gm1_${a/:/}.csv
  echo "x,placement,mst" > "$f"
  mst --mu 50x0.8,50x1 --lambda 5:75:10 --arrivals "$a" --placement gm1,fair,dep,sep-clamp | cut -d, -f1-3 >> "$f"
done

# --- Optimal number of mappers (Lemma 11, Fig. 13) and the LP/HP mix (Lemma 13, Figs. 14-16) --
"$MR_BIN" model mst-optimal --mu 1 --lambda 2,10,20 --csv > "$out/knee_curve.csv"
"$MR_BIN" model mst-optimal --mu 1 --lambda 2,10,20 --model lemma12 --csv > "$out/knee_curve_lemma12.csv"
echo "x,placement,mst" > "$out/hetero_knee.csv"
for n in $(seq 40 4 200); do
  q=$((n / 4))
  { mst --mu "${q}x1,${q}x0.9,${q}x0.8,${q}x0.7" --lambda 10 --d 3.5 --placement $ALL
    variants --mu "${q}x1,${q}x0.9,${q}x0.8,${q}x0.7" --lambda 10 --d 3.5 --placement sep-clamp,mep-clamp; } |
    awk -F, -v n="$n" '{ print n "," $2 "," $3 }' >> "$out/hetero_knee.csv"
done
"$MR_BIN" model mst-optimal --types lp:1:400,hp:1.25:800 --budget 2000:40000:2000 --lambda 1,5,25 --csv \
  > "$out/mix.csv"
"$MR_BIN" model mst-optimal --types lp:1:400,hp:1.25:800 --budget 2000:40000:2000 --lambda 1,5,25 --csv \
  --budget-rule at-most > "$out/mix_at_most.csv"

# --- Tables -----------------------------------------------------------------------------------
# pivot CSV (x,placement,mst) -> Markdown: one row per x, a column per placement, the ordering.
pivot() {
  awk -F, -v xname="$2" 'NR > 1 { if (!($1 in seen)) { seen[$1] = 1; xs[++nx] = $1 }
                                  if (!($2 in pseen)) { pseen[$2] = 1; ps[++np] = $2 } v[$1, $2] = $3 }
    END {
      head = "| " xname " |"; rule = "|---:|"
      for (j = 1; j <= np; j++) { head = head " " ps[j] " |"; rule = rule "---:|" }
      print head " ordering (lowest MST first) |"; print rule "---|"
      for (i = 1; i <= nx; i++) {
        line = "| " xs[i] " |"; n = 0
        for (j = 1; j <= np; j++) {
          m = v[xs[i], ps[j]]; line = line " " (m == "" ? "-" : sprintf("%.4g", m)) " |"
          if (m != "") { n++; name[n] = ps[j]; val[n] = m + 0 }
        }
        for (a = 2; a <= n; a++) for (b = a; b > 1 && val[b] < val[b - 1]; b--) {
          t = val[b]; val[b] = val[b - 1]; val[b - 1] = t; t = name[b]; name[b] = name[b - 1]; name[b - 1] = t }
        order = name[1]
        for (a = 2; a <= n; a++) order = order (val[a] - val[a - 1] <= 5e-5 * val[a] ? " = " : " < ") name[a]
        print line " " order " |"
      }
    }' "$1"
}
{
  echo "# Straggling mappers: MST by placement (bench/mst/run.sh, $(date -u +%Y-%m-%d))"
  echo
  echo "## M/M/1 nodes, 50 LP (mu 0.8) + 50 HP (mu 1): MST vs total arrival rate (Figs. 4, 6, 8, 10)"
  echo; pivot "$out/mm1_vs_lambda.csv" lambda
  echo; echo "## M/M/1 nodes, sep (Eq. 23): MST between Lemma 10's bounds (max and sum of E[R_i])"
  echo; echo "| lambda | lower | MST | upper |"; echo "|---:|---:|---:|---:|"
  awk -F, 'NR > 1 { printf "| %s | %.4g | %.4g | %.4g |\n", $1, $3, $2, $4 }' "$out/mm1_sep_bounds.csv"
  echo; echo "## M/M/1 nodes, half LP half HP, lambda = 20: MST vs number of nodes"
  echo; pivot "$out/mm1_vs_nodes.csv" nodes
  for d in 0.01 100; do
    echo; echo "## DTD nodes, D = $d: MST vs total arrival rate (Fig. 11, 100 nodes)"
    echo; pivot "$out/dtd${d}_vs_lambda.csv" lambda
    echo; echo "## DTD nodes, D = $d, lambda = 20: MST vs number of nodes (Fig. 11)"
    echo; pivot "$out/dtd${d}_vs_nodes.csv" nodes
  done
  for a in det erlang4 h24; do
    echo; echo "## G/M/1 nodes, $a inter-arrival gaps, 50 LP + 50 HP: MST vs lambda (Lemma 7, Algorithm 1)"
    echo; pivot "$out/gm1_$a.csv" lambda
  done
  echo; echo "## Knee of H_n / (mu - lambda/n), mu = 1 (Lemma 11)"
  echo; echo "| lambda | best n | MST at the knee | fewest nodes n | MST there | largest n searched | MST there |"
  echo "|---:|---:|---:|---:|---:|---:|---:|"
  awk -F, 'NR > 1 { if (!($1 in first)) { first[$1] = $3; fn[$1] = $2; order[++k] = $1 }
                    if ($4 == 1) { kn[$1] = $2; km[$1] = $3 } ln[$1] = $2; lm[$1] = $3 }
    END { for (i = 1; i <= k; i++) { l = order[i]
            printf "| %s | %d | %.4f | %d | %.4f | %d | %.4f |\n", l, kn[l], km[l], fn[l], first[l], ln[l], lm[l] } }' \
    "$out/knee_curve.csv"
  echo; echo "## Knee under Lemma 12 (Eq. 47, Makowski-Varma's V_n), mu = 1"
  echo; echo "| lambda | best n | MST at the knee | fewest nodes n | MST there | largest n searched | MST there |"
  echo "|---:|---:|---:|---:|---:|---:|---:|"
  awk -F, 'NR > 1 { if (!($1 in first)) { first[$1] = $3; fn[$1] = $2; order[++k] = $1 }
                    if ($4 == 1) { kn[$1] = $2; km[$1] = $3 } ln[$1] = $2; lm[$1] = $3 }
    END { for (i = 1; i <= k; i++) { l = order[i]
            printf "| %s | %d | %.4f | %d | %.4f | %d | %.4f |\n", l, kn[l], km[l], fn[l], first[l], ln[l], lm[l] } }' \
    "$out/knee_curve_lemma12.csv"
  echo; echo "## Heterogeneous knee: rates 1, 0.9, 0.8, 0.7 in equal numbers, lambda = 10, D = 3.5 (Fig. 13)"
  echo; pivot "$out/hetero_knee.csv" nodes | awk 'NR <= 2 || (NR - 3) % 5 == 0'
  echo; awk -F, 'NR > 1 { if (!($2 in best) || $3 + 0 < best[$2]) { best[$2] = $3 + 0; at[$2] = $1 } }
    END { for (p in best) printf "- %s: least MST %.4f at N = %d\n", p, best[p], at[p] }' "$out/hetero_knee.csv" | sort
  echo; echo "## Best LP/HP mix under a budget (Lemma 13; Figs. 14-16: lambda 25 / 5 / 1)"
  echo; echo "| budget | LP, HP at lambda 1 | MST | LP, HP at lambda 5 | MST | LP, HP at lambda 25 | MST |"
  echo "|---:|---|---:|---|---:|---|---:|"
  awk -F, 'NR > 1 { if (!($2 in seen)) { seen[$2] = 1; b[++n] = $2 } c[$1, $2] = ($5 == 0 ? "-" : $3 ", " $4)
                    m[$1, $2] = ($7 == "" ? "-" : sprintf("%.4f", $7)) }
    END { for (i = 1; i <= n; i++) printf "| %s | %s | %s | %s | %s | %s | %s |\n", b[i], c[1, b[i]], m[1, b[i]],
            c[5, b[i]], m[5, b[i]], c[25, b[i]], m[25, b[i]] }' "$out/mix.csv"
  echo; echo "## The variant at-most: the best mix costing at most the budget"
  echo; echo "| budget | LP, HP at lambda 1 | MST | LP, HP at lambda 5 | MST | LP, HP at lambda 25 | MST |"
  echo "|---:|---|---:|---|---:|---|---:|"
  awk -F, 'NR > 1 { if (!($2 in seen)) { seen[$2] = 1; b[++n] = $2 } c[$1, $2] = ($5 == 0 ? "-" : $3 ", " $4)
                    m[$1, $2] = ($7 == "" ? "-" : sprintf("%.4f", $7)) }
    END { for (i = 1; i <= n; i++) printf "| %s | %s | %s | %s | %s | %s | %s |\n", b[i], c[1, b[i]], m[1, b[i]],
            c[5, b[i]], m[5, b[i]], c[25, b[i]], m[25, b[i]] }' "$out/mix_at_most.csv"
} > "$out/results.md"
cat "$out/results.md"

# --- Plots ------------------------------------------------------------------------------------
if ! command -v gnuplot > /dev/null; then
  echo "run.sh: gnuplot not found; CSVs and tables written, plots skipped" >&2
  exit 0
fi
# wide .dat: x then one column per placement (NaN where overloaded), placements in $2's order.
wide() {
  awk -F, -v ps="$2" 'NR > 1 { v[$1, $2] = ($3 == "" ? "NaN" : $3); if (!($1 in s)) { s[$1] = 1; xs[++n] = $1 } }
    END { np = split(ps, p, ","); for (i = 1; i <= n; i++) { line = xs[i]
            for (j = 1; j <= np; j++) line = line " " (((xs[i], p[j]) in v) ? v[xs[i], p[j]] : "NaN"); print line } }' "$1"
}
for f in mm1_vs_lambda mm1_vs_nodes; do wide "$out/$f.csv" fair,dep,sep,sep-clamp/drop > "$out/$f.dat"; done
for f in dtd0.01_vs_lambda dtd0.01_vs_nodes dtd100_vs_lambda dtd100_vs_nodes hetero_knee; do
  wide "$out/$f.csv" $ALL,sep-clamp/drop,mep-clamp/drop > "$out/$f.dat"
done
for l in 2 10 20; do
  awk -F, -v l="$l" 'NR > 1 && $1 == l { print $2, $3 }' "$out/knee_curve.csv" > "$out/knee_$l.dat"
  awk -F, -v l="$l" 'NR > 1 && $1 == l { print $2, $3 }' "$out/knee_curve_lemma12.csv" > "$out/knee12_$l.dat"
done
for l in 1 5 25; do
  awk -F, -v l="$l" 'NR > 1 && $1 == l && $5 > 0 { print $2, $3 / $5, $4 / $5 }' "$out/mix.csv" > "$out/mix_$l.dat"
done
base='using 1:2 with linespoints title "fair", "" using 1:3 with linespoints title "dep", "" using 1:4 with linespoints title "sep (Eq. 23)"'
three="$base"', "" using 1:5 with lines dt 4 title "sep-clamp/drop (variant)"'
four="$base"', "" using 1:5 with linespoints title "mep", "" using 1:6 with linespoints title "dmep", "" using 1:7 with lines dt 2 lc black title "opt (search)", "" using 1:8 with lines dt 3 lc rgb "gray40" title "opt-idle", "" using 1:9 with lines dt 4 title "sep-clamp/drop", "" using 1:10 with lines dt 5 title "mep-clamp/drop"'
gnuplot <<GP
set terminal pngcairo size 1400,550 font ",10"
set grid; set key top left; set ylabel "MST"
set output "$out/mm1.png"
set multiplot layout 1,2 title "M/M/1 mapper nodes, half mu = 0.8, half mu = 1 (paper Figs. 4, 6, 8, 10)"
set xlabel "total arrival rate lambda (100 nodes)"; plot "$out/mm1_vs_lambda.dat" $three
set xlabel "number of nodes (lambda = 20)"; plot "$out/mm1_vs_nodes.dat" $three
unset multiplot
set terminal pngcairo size 1400,1000 font ",10"
set output "$out/dtd.png"
set multiplot layout 2,2 title "DTD mapper nodes R_i = D lambda_i/mu_i + Exp(mu_i - lambda_i) (paper Fig. 11)"
set xlabel "lambda (100 nodes)"; set title "D = 0.01 (memory-bound)"; plot "$out/dtd0.01_vs_lambda.dat" $four
set title "D = 100 (CPU-bound)"; plot "$out/dtd100_vs_lambda.dat" $four
set xlabel "number of nodes (lambda = 20)"; set title "D = 0.01"; plot "$out/dtd0.01_vs_nodes.dat" $four
set title "D = 100"; plot "$out/dtd100_vs_nodes.dat" $four
unset multiplot
set terminal pngcairo size 1400,550 font ",10"
set output "$out/knee.png"
set multiplot layout 1,2 title "Optimal number of mappers"
set title "H_n / (mu - lambda/n), mu = 1 (Lemma 11; dashed: Lemma 12)"; set xlabel "n"; set logscale x; set yrange [0:15]
plot "$out/knee_2.dat" with lines title "lambda 2", "$out/knee_10.dat" with lines title "lambda 10", "$out/knee_20.dat" with lines title "lambda 20", \
  "$out/knee12_2.dat" with lines dt 2 title "Lemma 12, lambda 2", "$out/knee12_10.dat" with lines dt 2 title "Lemma 12, lambda 10", "$out/knee12_20.dat" with lines dt 2 title "Lemma 12, lambda 20"
unset logscale x; set autoscale y
set title "rates 1, 0.9, 0.8, 0.7, lambda = 10, D = 3.5 (Fig. 13)"; set xlabel "number of nodes"
plot "$out/hetero_knee.dat" $four
unset multiplot
set terminal pngcairo size 1500,480 font ",10"
set output "$out/mix.png"
set multiplot layout 1,3 title "Best LP (mu 1, price 400) / HP (mu 1.25, price 800) share under a budget (Figs. 14-16)"
set style data histograms; set style histogram rowstacked; set style fill solid 0.8 border -1; set boxwidth 0.8
set yrange [0:1]; set ylabel "share of nodes"; set xlabel "budget"; set xtics rotate by -60; set key outside top center horizontal
set title "lambda = 25 (high)"; plot "$out/mix_25.dat" using 2:xtic(1) title "LP", "" using 3 title "HP"
set title "lambda = 5 (medium)"; plot "$out/mix_5.dat" using 2:xtic(1) title "LP", "" using 3 title "HP"
set title "lambda = 1 (low)"; plot "$out/mix_1.dat" using 2:xtic(1) title "LP", "" using 3 title "HP"
unset multiplot
GP
echo "wrote $out/{*.csv,results.md,mm1.png,dtd.png,knee.png,mix.png}" >&2
