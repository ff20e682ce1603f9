"""A chat answer printed as it streams, then its sources.

    pip install ./sdk/python
    FIS_BASE_URL=http://localhost:8080 FIS_API_KEY=... python3 chat_stream.py "How did Apple's revenue change?" AAPL
"""
import sys

from fis_sdk import Client


def main(question: str, ticker: str = "") -> None:
    client = Client()  # FIS_BASE_URL and FIS_API_KEY from the environment
    company_ids = [client.companies.by_ticker(ticker).id] if ticker else None
    for event in client.ai.chat([{"role": "user", "content": question}], company_ids=company_ids):
        if event.event == "token":
            print(event.data.text, end="", flush=True)
        elif event.event == "done":
            sources = dict.fromkeys(f"{c.ticker} {c.period or c.title or ''}".strip() for c in event.data.citations)
            print(f"\n\nSources: {'; '.join(sources) or 'none'}\nConversation: {event.data.conversation_id}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "How did revenue change last year?", sys.argv[2] if len(sys.argv) > 2 else "")
