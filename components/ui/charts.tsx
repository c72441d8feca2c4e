"use client";

import { useId } from "react";
import { useT } from "@/lib/i18n/provider";
import { niceTicks, type ScaleKind } from "./chart-scale";
import styles from "./charts.module.css";
import tables from "./table.module.css";

/**
 * Plain SVG charts drawn by React (the pages' CSP forbids the inline styles and eval some chart
 * libraries use). Each is an image with a title for screen readers, and its figures are one
 * click away as a table ("Show as a table"), which a screen reader also reaches.
 */

const W = 440;
const H = 210;
const PAD = { top: 12, right: 12, bottom: 30, left: 76 };

export type Series = { name: string; color: string; values: number[] };

type ChartProps = {
  title: string;
  /** One label per point (the days, or the pages), shared by every series. */
  labels: string[];
  series: Series[];
  /** The value axis: whole counts, bytes at round amounts of one unit, or seconds. */
  scale: ScaleKind;
  format: (n: number) => string;
  /** The heading of the table's first column ("Day" unless told). */
  labelHeading?: string;
};

/** Bars per category, e.g. the pages of a document (x: the page, y: its views or its median time). */
export function BarChart(props: ChartProps & { labelHeading: string }) {
  return <TimeChart kind="bars" {...props} />;
}

/** A filled line (one series, e.g. storage over days) or bars side by side (several series per day). */
export function TimeChart({ kind, ...props }: ChartProps & { kind: "area" | "bars" }) {
  const { title, labels, series, scale, format } = props;
  const id = useId();
  const ticks = niceTicks(Math.max(0, ...series.flatMap((s) => s.values)), scale);
  const top = ticks.at(-1)!;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const y = (v: number) => PAD.top + innerH - (v / top) * innerH;
  const slot = innerW / Math.max(1, labels.length);
  const x =
    kind === "bars"
      ? (i: number) => PAD.left + slot * i + slot / 2
      : (i: number) => PAD.left + (labels.length <= 1 ? innerW / 2 : (i / (labels.length - 1)) * innerW);
  return (
    <figure className={styles.chartFigure}>
      <svg className={styles.chart} viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}t`}>
        <title id={`${id}t`}>{title}</title>
        <Axes ticks={ticks} format={format} labels={labels} x={x} y={y} />
        {kind === "area" ? <Area series={series[0]} x={x} y={y} /> : <Bars series={series} slot={slot} x={x} y={y} />}
      </svg>
      {series.length > 1 && <Legend series={series} />}
      <ChartTable {...props} />
    </figure>
  );
}

function Area({ series, x, y }: { series: Series | undefined; x: (i: number) => number; y: (v: number) => number }) {
  if (!series || series.values.length === 0) return null;
  const { values, color } = series;
  const line = values.map((v, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const area = `${line} L${x(values.length - 1).toFixed(1)},${y(0)} L${x(0).toFixed(1)},${y(0)} Z`;
  return (
    <g>
      <path d={area} fill={color} fillOpacity={0.14} />
      <path d={line} fill="none" stroke={color} strokeWidth={2} />
      {values.map((v, i) => (
        <circle key={i} cx={x(i)} cy={y(v)} r={values.length > 40 ? 0 : 3} fill={color} />
      ))}
    </g>
  );
}

function Bars({ series, slot, x, y }: { series: Series[]; slot: number; x: (i: number) => number; y: (v: number) => number }) {
  // Bars stay slim when there are few days (a fresh platform has one).
  const barW = Math.min(28, Math.max(1, (slot * 0.8) / Math.max(1, series.length)));
  return (
    <g>
      {series.map((s, k) =>
        s.values.map((v, i) => {
          const top = y(v);
          return <rect key={`${s.name}-${i}`} x={x(i) - (barW * series.length) / 2 + k * barW} y={top} width={barW} height={Math.max(0, y(0) - top)} fill={s.color} />;
        }),
      )}
    </g>
  );
}

function Axes({ ticks, format, labels, x, y }: { ticks: number[]; format: (n: number) => string; labels: string[]; x: (i: number) => number; y: (v: number) => number }) {
  // At most about six day labels, evenly spread, so they never overlap (the last day, today, always shown).
  const every = Math.max(1, Math.ceil(labels.length / 6));
  const shown = (i: number) => i === labels.length - 1 || (i % every === 0 && labels.length - 1 - i >= every);
  return (
    <g fontSize={13} fill="#525a66" aria-hidden="true">
      {ticks.map((v) => (
        <g key={v}>
          <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} stroke="#e3e6eb" />
          <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end">
            {format(v)}
          </text>
        </g>
      ))}
      {labels.map((label, i) =>
        shown(i) ? (
          <text key={`${label}-${i}`} x={x(i)} y={H - 8} textAnchor="middle">
            {label}
          </text>
        ) : null,
      )}
    </g>
  );
}

function Legend({ series }: { series: Series[] }) {
  return (
    <ul className={styles.legend}>
      {series.map((s) => (
        <li key={s.name}>
          <span className={styles.swatch} style={{ background: s.color }} aria-hidden="true" />
          {s.name}
        </li>
      ))}
    </ul>
  );
}

/** The chart's figures as a table, folded under a native disclosure (keyboard and screen readers for free). */
function ChartTable({ title, labels, series, format, labelHeading }: ChartProps) {
  const t = useT();
  return (
    <details className={styles.chartTable}>
      <summary>{t("admin.dashboard.showTable")}</summary>
      <div className={tables.tableWrap}>
        <table className={tables.table}>
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{labelHeading ?? t("admin.dashboard.day")}</th>
              {series.map((s) => (
                <th key={s.name} scope="col" className={tables.num}>
                  {s.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((label, i) => (
              <tr key={`${label}-${i}`}>
                <th scope="row">{label}</th>
                {series.map((s) => (
                  <td key={s.name} className={tables.num}>
                    {format(s.values[i] ?? 0)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
