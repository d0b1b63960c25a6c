// The window's words, read from strings.json (written by `python -m client.i18n.export`
// from the window's catalogues: one source of every word). The language follows
// navigator.language until the player picks one with the switch (kept in localStorage).
import { store, stored } from "./storage";

export interface Strings {
  languages: string[];
  plural: Record<string, string>;
  texts: Record<string, Record<string, string>>;
  speeds: Record<string, number>; // the window's animation speeds, by name (pace.ts)
}

const LANGUAGE_KEY = "durak.language";

// the same forms as client.i18n.plural_form, by the rule named in strings.json
export function pluralForm(rule: string, n: number): "one" | "few" | "many" {
  if (rule === "slavic") {
    if (n % 10 === 1 && n % 100 !== 11) return "one";
    if (n % 10 >= 2 && n % 10 <= 4 && !(n % 100 >= 12 && n % 100 <= 14)) return "few";
    return "many";
  }
  return n === 1 ? "one" : "many";
}

export class Translator {
  language = "en";

  constructor(private readonly strings: Strings) {
    const asked = stored(LANGUAGE_KEY) ?? (navigator.language || "en").slice(0, 2).toLowerCase();
    this.language = strings.languages.includes(asked) ? asked : "en";
  }

  get languages(): string[] {
    return this.strings.languages;
  }

  choose(language: string): void {
    if (!this.strings.languages.includes(language)) return;
    this.language = language;
    store(LANGUAGE_KEY, language);
  }

  has(key: string): boolean {
    return key in (this.strings.texts[this.language] ?? {}) || key in (this.strings.texts.en ?? {});
  }

  t(key: string, fmt?: Record<string, string | number>): string {
    const text = this.strings.texts[this.language]?.[key] ?? this.strings.texts.en?.[key] ?? key;
    if (!fmt) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
      name in fmt ? String(fmt[name]) : whole,
    );
  }

  plural(key: string, n: number, fmt: Record<string, string | number> = {}): string {
    const form = pluralForm(this.strings.plural[this.language] ?? "one_many", n);
    return this.t(`${key}#${form}`, { ...fmt, n });
  }

  ordinal(n: number): string {
    if (this.language === "en") {
      const teen = n % 100 >= 10 && n % 100 <= 20;
      const suffix = teen ? "th" : ({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th";
      return `${n}${suffix}`;
    }
    return this.t("ordinal", { n });
  }
}
