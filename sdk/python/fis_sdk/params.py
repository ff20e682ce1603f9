"""The values the service accepts for its enumerated parameters, as Literal types, so a type checker refuses a
value the service would (a test checks them against the OpenAPI document)."""
from typing import Literal

PeriodType = Literal["annual", "quarter"]
"""The kind of periods of a history or a period list."""

SearchMode = Literal["hybrid", "text", "vector"]

SummaryType = Literal["overview", "profitability", "balance_sheet", "cash_flow", "risks"]

DocType = Literal["10-K", "10-Q", "8-K", "20-F", "6-K", "annual-report", "earnings-call", "press-release", "presentation", "note", "other"]

DocumentFormat = Literal["text", "markdown", "html"]

Role = Literal["viewer", "analyst", "admin"]

CompareMetric = Literal[
    "revenue", "revenue_change", "gross_profit", "operating_income", "operating_income_change", "net_income", "net_income_change", "ebitda",
    "eps_diluted", "research_and_development", "cash_and_equivalents", "total_assets", "total_liabilities", "total_equity", "total_debt",
    "operating_cash_flow", "operating_cash_flow_change", "capital_expenditure", "free_cash_flow", "free_cash_flow_change", "dividends_paid",
    "share_repurchases", "gross_margin", "gross_margin_change", "operating_margin", "operating_margin_change", "net_margin", "net_margin_change",
    "return_on_equity", "free_cash_flow_margin", "current_ratio", "debt_to_equity", "interest_coverage", "net_debt_to_ebitda",
]
