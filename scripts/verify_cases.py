#!/usr/bin/env python3
"""Writes tests/verify/cases.jsonl: the labelled answer/evidence pairs the verify stage is scored
on (crates/llmjson/tests/it/verify.rs asserts precision and recall; docs/verify.md shows the
confusion table).

Each form of number (integers, decimals, negatives, exponents, percentages, currency, ranges,
units, thousands separators by locale) appears in English and Portuguese, once grounded and once
not; then adversarial pairs. Every label was decided by reading the pair, not by running llmjson.

    python3 scripts/verify_cases.py
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "verify" / "cases.jsonl"

# (form, language, evidence, grounded answer, ungrounded answer)
FORMS: list[tuple[str, str, str, str, str]] = [
    ("integer", "en", "The plant shipped 4,812 units in March.",
     "March shipments reached 4,812 units.", "March shipments reached 4,821 units."),
    ("integer", "pt", "A fábrica expediu 4.812 unidades em março.",
     "Em março foram 4.812 unidades expedidas.", "Em março foram 4.128 unidades expedidas."),
    ("integer", "en", "Patients enrolled: 312 (arm A) and 298 (arm B).",
     "Arm B enrolled 298 patients.", "Arm B enrolled 289 patients."),
    ("integer", "pt", "Foram inscritos 312 pacientes no braço A e 298 no braço B.",
     "O braço A teve 312 pacientes.", "O braço A teve 321 pacientes."),
    ("decimal", "en", "Mean tensile strength was 41.8 MPa (n = 12).",
     "The mean tensile strength was 41.8 MPa.", "The mean tensile strength was 48.1 MPa."),
    ("decimal", "pt", "A resistência média à tração foi 41,8 MPa (n = 12).",
     "A resistência média foi de 41,8 MPa.", "A resistência média foi de 44,8 MPa."),
    ("decimal", "en", "pH of the buffer: 7.42 at the start, 7.38 after one hour.",
     "After an hour the pH was 7.38.", "After an hour the pH was 7.83."),
    ("decimal", "pt", "O pH do tampão foi 7,42 no início e 7,38 após uma hora.",
     "Após uma hora o pH estava em 7,38.", "Após uma hora o pH estava em 7,28."),
    ("negative", "en", "The core temperature fell to -18.5 °C overnight.",
     "Overnight it dropped to -18.5 °C.", "Overnight it dropped to -15.8 °C."),
    ("negative", "pt", "A temperatura do núcleo caiu para −18,5 °C durante a noite.",
     "Durante a noite chegou a -18,5 °C.", "Durante a noite chegou a -21,5 °C."),
    ("negative", "en", "Net margin: -3.2% in Q2 versus 4.1% in Q1.",
     "Q2 closed with a net margin of -3.2%.", "Q2 closed with a net margin of -2.3%."),
    ("negative", "pt", "Margem líquida: -3,2% no 2º trimestre contra 4,1% no 1º.",
     "O segundo trimestre fechou com margem de -3,2%.", "O segundo trimestre fechou com margem de -4,2%."),
    ("exponent", "en", "Measured conductivity: 3.4e-5 S/m.",
     "The conductivity was 3.4e-5 S/m.", "The conductivity was 4.3e-5 S/m."),
    ("exponent", "pt", "Condutividade medida: 3.4e-5 S/m; densidade de portadores 1.2e18 cm-3.",
     "A densidade de portadores foi 1.2e18.", "A densidade de portadores foi 2.1e18."),
    ("percent", "en", "Conversion rose from 2.4% to 3.1% after the redesign.",
     "After the redesign conversion was 3.1%.", "After the redesign conversion was 3.7%."),
    ("percent", "pt", "A conversão subiu de 2,4% para 3,1% após o redesenho.",
     "Depois do redesenho a conversão foi de 3,1 %.", "Depois do redesenho a conversão foi de 3,4 %."),
    ("percent", "en", "Yield was 87 percent for batch 7.",
     "Batch 7 had a yield of 87%.", "Batch 7 had a yield of 78%."),
    ("percent", "pt", "O rendimento do lote 7 foi de 87 por cento.",
     "O lote 7 rendeu 87%.", "O lote 7 rendeu 83%."),
    ("currency", "en", "Total invoice: $12,480.50, due in 30 days.",
     "The invoice totals $12,480.50.", "The invoice totals $12,840.50."),
    ("currency", "pt", "Valor total da nota: R$ 1.234,56, vencimento em 30 dias.",
     "A nota soma R$ 1.234,56.", "A nota soma R$ 1.243,56."),
    ("currency", "en", "The ticket costs €12,50 at the door.",
     "Tickets are €12,50 at the door.", "Tickets are €15,00 at the door."),
    ("currency", "pt", "O ingresso custa €12,50 na porta.",
     "O ingresso sai por €12,50.", "O ingresso sai por €21,50."),
    ("currency-scale", "en", "Series A raised $3,215,000 from four investors.",
     "The Series A raised $3.2M.", "The Series A raised $3.6M."),
    ("currency-scale", "pt", "A rodada captou R$ 3.215.000 com quatro investidores.",
     "A rodada captou R$ 3,2 milhões.", "A rodada captou R$ 3,5 milhões."),
    ("range", "en", "Recommended dose: 10–20 mg per kg.",
     "The dose is 10–20 mg per kg.", "The dose is 10–25 mg per kg."),
    ("range", "pt", "Dose recomendada: 10 a 20 mg por kg.",
     "A dose recomendada é de 10 a 20 mg/kg.", "A dose recomendada é de 15 a 20 mg/kg."),
    ("range", "en", "Operating range 40-60 °C.",
     "It operates between 40 and 60 °C.", "It operates between 40 and 65 °C."),
    ("range", "pt", "Faixa de operação 40-60 °C.",
     "Opera entre 40 e 60 °C.", "Opera entre 35 e 60 °C."),
    ("unit-glued", "en", "Wall thickness: 12mm; diameter 48mm.",
     "The wall is 12 mm thick.", "The wall is 14 mm thick."),
    ("unit-glued", "pt", "Espessura da parede: 12mm; diâmetro 48mm.",
     "A parede tem 12 mm de espessura.", "A parede tem 18 mm de espessura."),
    ("unit-spaced", "en", "Each crate weighs 3.5 kg empty.",
     "An empty crate weighs 3.5kg.", "An empty crate weighs 5.3kg."),
    ("unit-spaced", "pt", "Cada caixa vazia pesa 3,5 kg.",
     "Uma caixa vazia pesa 3,5kg.", "Uma caixa vazia pesa 4,5kg."),
    ("unit-degree", "en", "Cure at 45 °C for 2 hours.",
     "Curing runs at 45°C.", "Curing runs at 54°C."),
    ("unit-degree", "pt", "Curar a 45 ºC por 2 horas.",
     "A cura é feita a 45 °C.", "A cura é feita a 55 °C."),
    ("thousands-en", "en", "Population: 1,234,567 (2020 census).",
     "The census counted 1,234,567 people.", "The census counted 1,243,567 people."),
    ("thousands-pt", "pt", "População: 1.234.567 (censo de 2020).",
     "O censo contou 1.234.567 pessoas.", "O censo contou 1.234.657 pessoas."),
    ("thousands-fr", "en", "Budget: 1\u202f234,5 k€ for the year.",
     "The budget is 1,234.5 k€.", "The budget is 1,324.5 k€."),
    ("thousands-fr", "pt", "Orçamento: 1\u00a0234,5 mil euros.",
     "O orçamento é de 1.234,5 mil euros.", "O orçamento é de 1.432,5 mil euros."),
    ("cross-locale", "en", "Resistência: 41,8 MPa; alongamento 12,4 %.",
     "Strength was 41.8 MPa with 12.4% elongation.", "Strength was 41.8 MPa with 14.2% elongation."),
    ("cross-locale", "pt", "Strength: 41.8 MPa; elongation 12.4 %.",
     "A resistência foi 41,8 MPa com alongamento de 12,4 %.", "A resistência foi 41,8 MPa com alongamento de 12,8 %."),
    ("rounding", "en", "Average latency 12.34 ms (p50), 48.91 ms (p99).",
     "Median latency was about 12.3 ms.", "Median latency was about 12.4 ms."),
    ("rounding", "pt", "Latência média 12,34 ms (p50), 48,91 ms (p99).",
     "A latência mediana ficou em 12,3 ms.", "A latência mediana ficou em 12,35 ms."),
    ("rounding", "en", "Revenue for the year: $48,912,330.",
     "Revenue was roughly $48.9 million.", "Revenue was roughly $49.9 million."),
    ("rounding", "pt", "Receita anual: R$ 48.912.330.",
     "A receita foi de cerca de R$ 48,9 milhões.", "A receita foi de cerca de R$ 49,8 milhões."),
    ("scale-word", "en", "Registered users: 1,500,000 as of June.",
     "We have 1.5 million registered users.", "We have 2.5 million registered users."),
    ("scale-word", "pt", "Faturamento: R$ 12.000 no mês.",
     "O faturamento foi de R$ 12 mil no mês.", "O faturamento foi de R$ 21 mil no mês."),
    ("scale-suffix", "en", "Monthly active users: 12,000.",
     "About 12k people use it monthly.", "About 15k people use it monthly."),
    ("scale-suffix", "pt", "Usuários ativos por mês: 12.000.",
     "Cerca de 12k pessoas usam por mês.", "Cerca de 18k pessoas usam por mês."),
    ("parenthesised", "en", "Response rate 62% (n=148).",
     "The response rate was 62% across 148 respondents.", "The response rate was 62% across 184 respondents."),
    ("parenthesised", "pt", "Taxa de resposta 62% (n=148).",
     "A taxa de resposta foi 62% com 148 respondentes.", "A taxa de resposta foi 66% com 148 respondentes."),
    ("medical", "en", "Systolic pressure fell from 148 to 132 mmHg; HbA1c 7.1%.",
     "Systolic pressure dropped to 132 mmHg and HbA1c was 7.1%.", "Systolic pressure dropped to 128 mmHg and HbA1c was 7.1%."),
    ("medical", "pt", "A pressão sistólica caiu de 148 para 132 mmHg; HbA1c 7,1%.",
     "A sistólica chegou a 132 mmHg e a HbA1c a 7,1%.", "A sistólica chegou a 132 mmHg e a HbA1c a 6,9%."),
    ("finance", "en", "EBITDA: $4.21 billion; margin 18.6%.",
     "EBITDA came in at $4.21 billion, an 18.6% margin.", "EBITDA came in at $4.12 billion, an 18.6% margin."),
    ("finance", "pt", "EBITDA: R$ 4,21 bilhões; margem de 18,6%.",
     "O EBITDA foi de R$ 4,21 bilhões, margem de 18,6%.", "O EBITDA foi de R$ 4,21 bilhões, margem de 16,8%."),
    ("lab-table", "en", "Sample | Strength (MPa) | Elongation (%)\nA | 41.8 | 12.4\nB | 38.2 | 9.1",
     "Sample A: 41.8 MPa and 12.4% elongation.", "Sample A: 41.8 MPa and 14.4% elongation."),
    ("lab-table", "pt", "Amostra | Resistência (MPa) | Alongamento (%)\nA | 41,8 | 12,4\nB | 38,2 | 9,1",
     "A amostra B teve 38,2 MPa e 9,1% de alongamento.", "A amostra B teve 38,2 MPa e 9,7% de alongamento."),
    ("unicode-minus", "en", "Return: −2.75% year on year.",
     "Year on year the return was -2.75%.", "Year on year the return was -2.57%."),
    ("leading-zero-decimal", "pt", "Volume da dose: 0,5 mL.",
     "Cada dose tem 0,5 mL.", "Cada dose tem 0,25 mL."),
    ("hours-and-speed", "en", "The route took 3.5 h at 84 km/h on average.",
     "Average speed was 84 km/h over 3.5 h.", "Average speed was 88 km/h over 3.5 h."),
    ("many-numbers", "pt", "Lotes: 101 (42,1 kg), 102 (39,8 kg), 103 (40,6 kg), 104 (41,0 kg).",
     "Os lotes pesaram 42,1 kg, 39,8 kg, 40,6 kg e 41,0 kg.", "Os lotes pesaram 42,1 kg, 39,8 kg, 40,6 kg e 41,5 kg."),
]

# Adversarial pairs: (name, language, evidence, answer, grounded, locale or None)
ADVERSARIAL: list[tuple[str, str, str, str, bool, str | None]] = [
    ("split-across-line-break", "en", "The count was 12\n500 samples were discarded.",
     "The count was 12500.", False, None),
    ("split-across-line-break", "pt", "A contagem foi 12\n500 amostras foram descartadas.",
     "A contagem foi de 12.500.", False, None),
    ("wrong-decimal-mark", "en", "Viscosity: 1.25 Pa·s.", "Viscosity was 125 Pa·s.", False, None),
    ("wrong-decimal-mark", "pt", "Viscosidade: 1,25 Pa·s.", "A viscosidade foi de 12,5 Pa·s.", False, None),
    ("wrong-decimal-mark-fixed-locale", "en", "Thickness 1,234 mm (en: one thousand two hundred).",
     "Thickness 1.234 mm.", False, "en"),
    ("percent-as-fraction", "en", "Churn was 0.045 of active users.", "Churn was 4.5%.", False, None),
    ("percent-as-fraction", "pt", "A evasão foi de 0,045 dos usuários ativos.", "A evasão foi de 4,5%.", False, None),
    ("sum-of-evidence", "en", "Q1 sales 120 units, Q2 sales 135 units.", "First-half sales totalled 255 units.", False, None),
    ("sum-of-evidence", "pt", "Vendas no T1: 120 unidades; no T2: 135 unidades.", "As vendas do semestre somaram 255 unidades.", False, None),
    ("difference-of-evidence", "en", "Before: 41.8 MPa. After: 38.2 MPa.", "Strength dropped by 3.6 MPa.", False, None),
    ("more-precise-than-evidence", "en", "Mass 12.3 g.", "Mass 12.34 g.", False, None),
    ("more-precise-than-evidence", "pt", "Massa 12,3 g.", "Massa 12,34 g.", False, None),
    ("trailing-zero", "en", "Mass 12.3 g.", "Mass 12.30 g.", True, None),
    ("unit-mismatch", "en", "Length 12.7 mm.", "Length 12.7 cm.", False, None),
    ("unit-mismatch", "pt", "Comprimento 12,7 mm.", "Comprimento de 12,7 kg.", False, None),
    ("unit-only-in-header", "en", "Thickness (mm): 12.7", "It is 12.7 mm thick.", True, None),
    ("years-are-skipped", "en", "Study of the second cohort: 41.8 MPa.", "In 2021 the strength was 41.8 MPa.", True, None),
    ("dates-are-skipped", "pt", "Ensaio de 15/03/2024: 41,8 MPa.", "Em 16/03/2024 a resistência era 41,8 MPa.", True, None),
    ("list-markers-are-skipped", "en", "Strength 41.8 MPa; elongation 12.4%.",
     "1. Strength: 41.8 MPa\n2. Elongation: 12.4%\n3. Verdict: pass", True, None),
    ("identifiers-are-skipped", "en", "Per ISO 527 the strength was 41.8 MPa.",
     "Tested to ISO-9001 and v2 of the protocol, H2O content aside, 41.8 MPa.", True, None),
    ("small-counts-are-skipped", "pt", "Resistência 41,8 MPa.", "Foram 3 ensaios e 2 repetições: 41,8 MPa.", True, None),
    ("ambiguous-resolved-by-evidence", "en", "Units sold: 1234.", "We sold 1,234 units.", True, None),
    ("ambiguous-neither-reading", "en", "Units sold: 1243.", "We sold 1,234 units.", False, None),
    ("number-in-json-evidence", "en", '{"sample": "B", "strength_mpa": 38.2}', "Sample B: 38.2 MPa.", True, None),
    ("one-of-many-unmatched", "en", "A: 41.8 MPa, B: 38.2 MPa, C: 40.0 MPa.",
     "A 41.8 MPa, B 38.2 MPa, C 40.0 MPa, D 39.9 MPa.", False, None),
    ("digits-transposed", "pt", "Custo por kg: R$ 12,50.", "O custo por kg é R$ 21,50.", False, None),
    ("sign-flipped", "en", "Change: -4.2%.", "The change was +4.2%.", False, None),
    ("scale-word", "en", "Market size: 2.4 billion dollars.", "The market is worth $2.4bn.", True, None),
    ("scale-word", "pt", "Tamanho do mercado: 2,4 bilhões de reais.", "O mercado vale R$ 2,4 bi.", True, None),
    ("scale-wrong", "en", "Market size: 2.4 billion dollars.", "The market is worth $2.4M.", False, None),
    ("csv-style-evidence", "pt", "amostra;resistencia\nA;41,8\nB;38,2", "A amostra B teve 38,2 MPa.", True, None),
    ("number-glued-to-word", "en", "pressure 2.5bar", "The pressure was 2.5 bar.", True, None),
    ("citation-markers-are-skipped", "en", "Strength 41.8 MPa (lab report, table 2).",
     "The strength was 41.8 MPa [12], as confirmed in [3, 14].", True, None),
    ("exponent-vs-plain", "en", "Rate 0.00034 per hour.", "The rate was 3.4e-4 per hour.", True, None),
    ("exponent-vs-plain-wrong", "en", "Rate 0.00034 per hour.", "The rate was 3.4e-3 per hour.", False, None),
]

NB = "\u00a0"

# Round 2 (issue 37): the classes an auditor found passing, each in the five locales we claim,
# with grounded twins so that blocking stays precise. (class, language, evidence, answer,
# grounded, options) — options: {"locale": ..., "percent": "equivalent"}.
ROUND2: list[tuple[str, str, str, str, bool, dict]] = [
    # 1. A sign before a currency is a sign; a loss stated in words is the same amount.
    ("sign-before-currency", "en", "Net income: −$340,000 for the year.", "The company posted a net profit of $340,000.", False, {}),
    ("sign-before-currency", "en", "Net income: −$340,000 for the year.", "The company posted a net loss of $340,000.", True, {}),
    ("sign-before-currency", "en", "Net income: −$340,000 for the year.", "Net income was -$340,000.", True, {}),
    ("sign-before-currency", "en", "Net income: −$340,000 for the year.", "Net income was $340,000.", False, {}),
    ("sign-before-currency", "en", "Cash flow: €-12,500 in the quarter.", "Cash flow was €12,500 in the quarter.", False, {}),
    ("sign-before-currency", "en", "The unit reported a loss of $2.1M.", "The unit's result was -$2.1M.", True, {}),
    ("sign-before-currency", "pt", "Resultado líquido: -R$ 1,2 milhão no trimestre.", "O lucro líquido foi de R$ 1,2 milhão.", False, {}),
    ("sign-before-currency", "pt", "Resultado líquido: -R$ 1,2 milhão no trimestre.", "O prejuízo foi de R$ 1,2 milhão.", True, {}),
    ("sign-before-currency", "es", "Resultado neto: -45.000 € en el ejercicio.", "Obtuvo un beneficio de 45.000 €.", False, {}),
    ("sign-before-currency", "es", "Resultado neto: -45.000 € en el ejercicio.", "Registró una pérdida de 45.000 €.", True, {}),
    ("sign-before-currency", "de", "Jahresergebnis: −2,4 Mio. €.", "Der Gewinn betrug 2,4 Mio. €.", False, {}),
    ("sign-before-currency", "de", "Jahresergebnis: −2,4 Mio. €.", "Der Verlust betrug 2,4 Mio. €.", True, {}),
    ("sign-before-currency", "fr", f"Résultat net : −340{NB}000 € sur l'exercice.", f"Le bénéfice net atteint 340{NB}000 €.", False, {}),
    ("sign-before-currency", "fr", f"Résultat net : −340{NB}000 € sur l'exercice.", f"La perte nette atteint 340{NB}000 €.", True, {}),
    # 2. A count is not a year because it has four digits.
    ("count-not-year", "en", "The bearing survived 2,051 cycles before failure.", "The bearing survived 2015 cycles.", False, {}),
    ("count-not-year", "en", "The bearing survived 2,051 cycles before failure.", "The bearing survived 2,051 cycles.", True, {}),
    ("count-not-year", "pt", "O rolamento suportou 2.051 ciclos.", "O rolamento suportou 2015 ciclos.", False, {}),
    ("count-not-year", "es", "Se inscribieron 1.987 pacientes.", "Se inscribieron 1978 pacientes.", False, {}),
    ("count-not-year", "de", "Insgesamt 2.034 Teilnehmer wurden befragt.", "Es wurden 2043 Teilnehmer befragt.", False, {}),
    ("count-not-year", "fr", f"L'étude a inclus 1{NB}964 patients.", "L'étude a inclus 1946 patients.", False, {}),
    ("count-not-year", "en", "Revenue rose to $5.1M.", "In 2023, revenue rose to $5.1M.", True, {}),
    # 3. Units written as words are units; two stated units must agree.
    ("unit-word", "en", "Cure at 165 °C for 40 min.", "The cure lasted 165 minutes.", False, {}),
    ("unit-word", "en", "Cure at 165 °C for 40 min.", "The cure lasted 40 minutes at 165 °C.", True, {}),
    ("unit-word", "pt", "Cura a 165 °C por 40 min.", "A cura durou 165 minutos.", False, {}),
    ("unit-word", "pt", "Cura a 165 °C por 40 min.", "A cura durou 40 minutos.", True, {}),
    ("unit-word", "es", "Curado a 165 °C durante 40 min.", "El curado duró 165 minutos.", False, {}),
    ("unit-word", "de", "Aushärtung bei 165 °C für 40 min.", "Die Aushärtung dauerte 165 Minuten.", False, {}),
    ("unit-word", "de", "Aushärtung bei 165 °C für 40 min.", "Die Aushärtung dauerte 40 Minuten.", True, {}),
    ("unit-word", "fr", "Cuisson à 165 °C pendant 40 min.", "La cuisson a duré 165 minutes.", False, {}),
    ("unit-word", "en", "The sample weighed 2.5 kg.", "The sample was 2.5 kilograms.", True, {}),
    ("unit-word", "en", "The sample weighed 2.5 kg.", "The sample measured 2.5 meters.", False, {}),
    # 4. Scale words of every locale.
    ("scale-words", "es", "Ingresos: 3.200.000 €.", "Los ingresos fueron de 3,2 millones de euros.", True, {}),
    ("scale-words", "es", "Ingresos: 3.200.000 €.", "Los ingresos fueron de 3,4 millones de euros.", False, {}),
    ("scale-words", "es", "Deuda: 2.100.000.000 €.", "La deuda es de 2,1 mil millones de euros.", True, {}),
    ("scale-words", "es", "Deuda: 2.100.000.000 €.", "La deuda es de 2,1 millones de euros.", False, {}),
    ("scale-words", "de", "Umsatz: 3.200.000 €.", "Der Umsatz lag bei 3,2 Millionen Euro.", True, {}),
    ("scale-words", "de", "Umsatz: 1.500.000.000 €.", "Der Umsatz lag bei 1,5 Milliarden Euro.", True, {}),
    ("scale-words", "de", "Umsatz: 1.500.000.000 €.", "Der Umsatz lag bei 1,5 Millionen Euro.", False, {}),
    ("scale-words", "de", "Kosten: 2.400.000 €.", "Die Kosten betrugen 2,4 Mio. €.", True, {}),
    ("scale-words", "fr", f"Chiffre d'affaires : 2{NB}500{NB}000{NB}000 €.", "Le chiffre d'affaires atteint 2,5 milliards d'euros.", True, {}),
    ("scale-words", "fr", f"Chiffre d'affaires : 2{NB}500{NB}000{NB}000 €.", "Le chiffre d'affaires atteint 2,5 millions d'euros.", False, {}),
    ("scale-words", "pt", "Receita de R$ 4.300.000.000 no ano.", "A receita foi de R$ 4,3 bilhões.", True, {}),
    ("scale-words", "pt", "Receita de R$ 4.300.000.000 no ano.", "A receita foi de R$ 4,3 milhões.", False, {}),
    ("scale-words", "en", "Revenue was $3,215,000.", "Revenue was $3.2 million.", True, {}),
    # 5. Tables pasted into the text.
    ("table-in-text", "en", "variant,strength,elongation\nA,41.8,7.5\nB,44.2,6.9", "Variant A reached 41.8 MPa with 7.5% elongation.", True, {}),
    ("table-in-text", "en", "variant,strength,elongation\nA,41.8,7.5\nB,44.2,6.9", "Variant A reached 41 MPa.", False, {}),
    ("table-in-text", "pt", "variante;resistência;alongamento\nA;41,8;1,047\nB;44,2;0,985", "A variante A teve alongamento de 1,047.", True, {}),
    ("table-in-text", "pt", "variante;resistência;alongamento\nA;41,8;1,047\nB;44,2;0,985", "O alongamento da variante A foi 1047.", False, {}),
    ("table-in-text", "de", "Probe;Festigkeit;Dehnung\nA;41,8;12,5\nB;44,2;9,1", "Probe B erreichte 44,2 MPa.", True, {}),
    ("table-in-text", "de", "Probe;Festigkeit;Dehnung\nA;41,8;12,5\nB;44,2;9,1", "Probe B erreichte 41,8 MPa.", False, {}),
    ("table-in-text", "fr", "Échantillon;Résistance\nA;41,8\nB;44,2", "L'échantillon A atteint 44,2 MPa.", False, {}),
    ("table-in-text", "es", "Muestra;Resistencia\nA;1,250\nB;1,380", "La muestra A tuvo una resistencia de 1250.", False, {}),
    ("table-in-text", "en", "| Variant | Strength (MPa) |\n|---|---|\n| A | 41.8 |\n| B | 44.2 |", "Variant B reached 44.2 MPa.", True, {}),
    ("table-in-text", "en", "| Variant | Strength (MPa) |\n|---|---|\n| A | 41.8 |\n| B | 44.2 |", "Variant A reached 44.2 MPa.", False, {}),
    ("table-in-text", "en", "Metric,2022,2023\nRevenue,4.8,5.1\nMargin,12.5,13.1", "Revenue was 5.1 in 2023.", True, {}),
    ("table-in-text", "en", "Metric,2022,2023\nRevenue,4.8,5.1\nMargin,12.5,13.1", "Revenue was 5.1 in 2022.", False, {}),
    # 6. Each text shows its own convention.
    ("locale-per-text", "en", "O lote pesou 1.234 kg e o rendimento subiu 3,5 %.", "The batch weighed 1.234 kg and yield rose 3.5%.", False, {}),
    ("locale-per-text", "pt", "O lote pesou 1.234 kg e o rendimento subiu 3,5 %.", "O lote pesou 1.234 kg e o rendimento subiu 3,5 %.", True, {}),
    ("locale-per-text", "en", "Lieferungen: 1.500 Einheiten, plus 2,5 %.", "Shipments of 1,500 units, up 2.5%.", True, {}),
    ("locale-per-text", "fr", "The batch weighs 1,234 kg, 3.5% more.", "Le lot pèse 1,234 kg, soit 3,5 % de plus.", False, {}),
    ("locale-per-text", "es", "The batch weighed 1.234 kg, up 3.5%.", "El lote pesó 1.234 kg y creció un 3,5 %.", False, {}),
    # 7. Numbers bound to the wrong subject; labels are not measurements.
    ("cross-variant", "en", "Variant A: 41.8 MPa. Variant B: 44.2 MPa.", "Variant A reached 44.2 MPa.", False, {}),
    ("cross-variant", "en", "Variant A: 41.8 MPa. Variant B: 44.2 MPa.", "Variant B reached 44.2 MPa.", True, {}),
    ("cross-variant", "en", "Variant A: 41.8 MPa. Variant B: 44.2 MPa.", "Variant A reached 41.8 MPa, while B reached 44.2 MPa.", True, {}),
    ("cross-variant", "en", "Variant A: 41.8 MPa. Variant B: 44.2 MPa.", "Variant B reached 44.2 MPa, while A reached only 44.2 MPa too.", False, {}),
    ("cross-variant", "en", "Revenue in 2022 was $4.8M and in 2023 $5.1M.", "Revenue in 2022 was $5.1M.", False, {}),
    ("cross-variant", "en", "Revenue in 2022 was $4.8M and in 2023 $5.1M.", "In 2023 revenue reached $5.1M.", True, {}),
    ("cross-variant", "en", "Revenue: $4.8M (2022), $5.1M (2023).", "Revenue in 2022 was $5.1M.", False, {}),
    ("cross-variant", "en", "Revenue: $4.8M (2022), $5.1M (2023).", "Revenue grew from $4.8M in 2022 to $5.1M in 2023.", True, {}),
    ("cross-variant", "en", "Study from the 2019 cohort: 41.8 MPa.", "In 2021 the strength was 41.8 MPa.", False, {}),
    ("cross-variant", "pt", "Amostra A: 41,8 MPa; amostra B: 38,2 MPa.", "A amostra B atingiu 41,8 MPa.", False, {}),
    ("cross-variant", "pt", "Amostra A: 41,8 MPa; amostra B: 38,2 MPa.", "A amostra A atingiu 41,8 MPa e a B 38,2 MPa.", True, {}),
    ("cross-variant", "de", "Variante A: 41,8 MPa; Variante B: 44,2 MPa.", "Variante A erreichte 44,2 MPa.", False, {}),
    ("cross-variant", "es", "Muestra A: 41,8 MPa. Muestra B: 44,2 MPa.", "La muestra A alcanzó 44,2 MPa.", False, {}),
    ("cross-variant", "fr", "Échantillon A : 41,8 MPa ; échantillon B : 44,2 MPa.", "L'échantillon B atteint 44,2 MPa.", True, {}),
    ("cross-variant", "fr", "Échantillon A : 41,8 MPa ; échantillon B : 44,2 MPa.", "L'échantillon A atteint 44,2 MPa.", False, {}),
    ("cross-variant", "en", "## Variant A\n- strength 41.8 MPa\n- elongation 7.5%\n\n## Variant B\n- strength 44.2 MPa\n- elongation 6.9%", "Variant B: strength 44.2 MPa, elongation 6.9%.", True, {}),
    ("cross-variant", "en", "## Variant A\n- strength 41.8 MPa\n- elongation 7.5%\n\n## Variant B\n- strength 44.2 MPa\n- elongation 6.9%", "Variant A: strength 44.2 MPa, elongation 7.5%.", False, {}),
    ("label-not-measurement", "en", "Table 45 summarises the trial: 120 patients were enrolled.", "The trial enrolled 45 patients.", False, {}),
    ("label-not-measurement", "en", "Table 45 summarises the trial: 120 patients were enrolled.", "The trial enrolled 120 patients.", True, {}),
    ("label-not-measurement", "pt", "Conforme a Tabela 12, a resistência foi 41,8 MPa.", "A resistência foi 12 MPa.", False, {}),
    ("label-not-measurement", "de", "Siehe Abbildung 14: Festigkeit 41,8 MPa.", "Die Festigkeit betrug 14 MPa.", False, {}),
    ("label-not-measurement", "es", "Según la Tabla 23, la resistencia fue de 41,8 MPa.", "La resistencia fue de 23 MPa.", False, {}),
    ("label-not-measurement", "fr", "Voir la figure 17 : résistance de 41,8 MPa.", "La résistance était de 17 MPa.", False, {}),
    ("label-not-measurement", "en", "Specimen 12 failed at 41.8 MPa.", "Specimen 12 failed at 41.8 MPa.", True, {}),
    ("label-not-measurement", "en", "Specimen 12 failed at 41.8 MPa.", "12 specimens failed.", False, {}),
    ("label-not-measurement", "en", "Section 4.2 reports a yield of 88%.", "Yield was 4.2%.", False, {}),
    # 8. A percentage's fraction is a bare fraction, not a percentage.
    ("percent-fraction", "en", "Conversion rate: 0.25 %.", "Conversion was 25%.", False, {"percent": "equivalent"}),
    ("percent-fraction", "en", "Conversion rate: 0.25.", "Conversion was 25%.", True, {"percent": "equivalent"}),
    ("percent-fraction", "pt", "Participação: 45%.", "A participação foi de 0,45.", True, {"percent": "equivalent"}),
    ("percent-fraction", "pt", "Participação: 0,45 %.", "A participação foi de 45%.", False, {"percent": "equivalent"}),
]


def main() -> None:
    rows = []
    for i, (form, lang, evidence, good, bad) in enumerate(FORMS):
        rows.append({"id": f"{form}-{lang}-{i}-grounded", "form": form, "language": lang,
                     "evidence": evidence, "answer": good, "grounded": True})
        rows.append({"id": f"{form}-{lang}-{i}-ungrounded", "form": form, "language": lang,
                     "evidence": evidence, "answer": bad, "grounded": False})
    for i, (name, lang, evidence, answer, grounded, locale) in enumerate(ADVERSARIAL):
        row = {"id": f"adversarial-{name}-{lang}-{i}", "form": "adversarial:" + name, "language": lang,
               "evidence": evidence, "answer": answer, "grounded": grounded}
        if locale:
            row["locale"] = locale
        rows.append(row)
    for i, (name, lang, evidence, answer, grounded, options) in enumerate(ROUND2):
        row = {"id": f"round2-{name}-{lang}-{i}", "form": "round2:" + name, "language": lang,
               "evidence": evidence, "answer": answer, "grounded": grounded}
        row.update(options)
        rows.append(row)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    grounded = sum(r["grounded"] for r in rows)
    print(f"{len(rows)} cases ({grounded} grounded, {len(rows) - grounded} not) -> {OUT}")


if __name__ == "__main__":
    main()
