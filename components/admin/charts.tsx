"use client";

import { useId } from "react";
import styles from "./admin.module.css";

/**
 * Plain SVG charts drawn by React (the pages' CSP forbids the inline styles and eval some chart
 * libraries use). Each has a title and a description for screen readers, and the same figures
 * are in a table next to it.
 */

const W = 520;
const H = 220;
const PAD = { top: 12, right: 12, bottom: 30, left: 72 };

type Point = { label: string; value: number };

function ticks(max: number): number[] {
  if (max <= 0) return [0];
  return [0, max / 2, max];
}

/** A filled line over days: storage used over time. */
export function AreaChart({ title, description, points, format, color = "#2f5bd3" }: { title: string; description: string; points: Point[]; format: (n: number) => string; color?: string }) {
  const max = Math.max(1, ...points.map((p) => p.value)) * 1.1;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (points.length <= 1 ? innerW / 2 : (i / (points.length - 1)) * innerW);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const id = useId();
  const line = points.map((p, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  const area = points.length ? `${line} L${x(points.length - 1).toFixed(1)},${y(0)} L${x(0).toFixed(1)},${y(0)} Z` : "";
  return (
    <svg className={styles.chart} viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}t ${id}d`}>
      <title id={`${id}t`}>{title}</title>
      <desc id={`${id}d`}>{description}</desc>
      <Axes max={max} format={format} labels={points.map((p) => p.label)} x={x} y={y} />
      {points.length > 0 && <path d={area} fill={color} fillOpacity={0.14} />}
      {points.length > 0 && <path d={line} fill="none" stroke={color} strokeWidth={2} />}
      {points.map((p, i) => (
        <circle key={p.label} cx={x(i)} cy={y(p.value)} r={points.length > 40 ? 0 : 3} fill={color} />
      ))}
    </svg>
  );
}

/** Bars side by side for each day: uploads and downloads. */
export function BarChart({ title, description, labels, series }: { title: string; description: string; labels: string[]; series: { name: string; color: string; values: number[] }[] }) {
  const max = Math.max(1, ...series.flatMap((s) => s.values)) * 1.1;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, labels.length);
  // Bars stay slim when there are few days (a fresh platform has one).
  const barW = Math.min(28, Math.max(1, (slot * 0.8) / series.length));
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const x = (i: number) => PAD.left + slot * i + slot / 2;
  const id = useId();
  return (
    <svg className={styles.chart} viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}t ${id}d`}>
      <title id={`${id}t`}>{title}</title>
      <desc id={`${id}d`}>{description}</desc>
      <Axes max={max} format={(n) => String(Math.round(n))} labels={labels} x={x} y={y} />
      {labels.map((label, i) =>
        series.map((s, k) => {
          const top = y(s.values[i] ?? 0);
          return <rect key={`${label}-${s.name}`} x={x(i) - (barW * series.length) / 2 + k * barW} y={top} width={barW} height={Math.max(0, y(0) - top)} fill={s.color} />;
        }),
      )}
    </svg>
  );
}

function Axes({ max, format, labels, x, y }: { max: number; format: (n: number) => string; labels: string[]; x: (i: number) => number; y: (v: number) => number }) {
  // At most about eight day labels, evenly spread, so they never overlap.
  const every = Math.max(1, Math.ceil(labels.length / 8));
  return (
    <g fontSize={13} fill="#525a66">
      {ticks(max / 1.1).map((v) => (
        <g key={v}>
          <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} stroke="#e3e6eb" />
          <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end">
            {format(v)}
          </text>
        </g>
      ))}
      {labels.map((label, i) =>
        i % every === 0 || i === labels.length - 1 ? (
          <text key={label} x={x(i)} y={H - 8} textAnchor="middle">
            {label}
          </text>
        ) : null,
      )}
    </g>
  );
}
