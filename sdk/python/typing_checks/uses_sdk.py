"""Code that uses the SDK as documented: `mypy --strict` must accept it (test/sdk-python.test.ts runs it)."""
from fis_sdk import Client, StreamInterruptedError
from fis_sdk.models import ChatDoneEvent, IncomeStatement


def latest_revenue(client: Client, ticker: str) -> float:
    company = client.companies.by_ticker(ticker)
    history: list[IncomeStatement] = client.statements.income_history(company.id, type="annual", limit=2, timeout=5.0)
    return history[0].revenue or 0.0


def answer(client: Client, question: str) -> str:
    text = ""
    try:
        for event in client.ai.chat([{"role": "user", "content": question}]):
            if event.event == "token":
                text += event.data.text
            elif event.event == "done":
                done: ChatDoneEvent = event.data
                return done.answer
            elif event.event == "unknown":
                print(event.name)
    except StreamInterruptedError as cut:
        return cut.partial_text
    return text


def summary(client: Client) -> str:
    hits = client.search("revenue", top_k=3, mode="hybrid", doc_types=["10-K"])
    return client.ai.summarize(hits[0].company_id, summary_type="risks").summary + client.ai.chat_graphql([{"role": "user", "content": "Hi"}]).final_answer().answer
