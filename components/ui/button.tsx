import type { ButtonHTMLAttributes } from "react";
import styles from "./button.module.css";

type Props = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: "primary" | "secondary" | "ghost" | "danger";
  size?: "medium" | "small";
  block?: boolean;
};

export function Button({ variant = "primary", size = "medium", block = false, className, type = "button", ...rest }: Props) {
  const classes = [styles.button, styles[variant], size === "small" && styles.small, block && styles.block, className].filter(Boolean).join(" ");
  return <button type={type} className={classes} {...rest} />;
}
