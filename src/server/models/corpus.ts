// The built-in text the default model's tokenizer is trained on: a little English and a little
// code in the languages people complete most, so common words and keywords become single tokens.
export const TRAINING_CORPUS = String.raw`
The quick brown fox jumps over the lazy dog. A completion model reads the text before the cursor
and the text after it, and writes what belongs in the middle. The editor shows the suggestion as
ghost text; the user accepts it with Tab or keeps typing. When the user keeps typing, the next
request shares most of its prompt with the previous one, so the server reuses what it already
evaluated and only reads the new characters. This is why a local server can feel instant.

Chat is a conversation between a user and an assistant. The system message sets the tone. The
user asks a question about the selected code, and the assistant answers in plain words with short
code examples. Good answers are correct, brief and kind. If the question is unclear, ask again.

function add(a: number, b: number): number {
  return a + b;
}

export function fibonacci(n: number): number {
  if (n < 2) {
    return n;
  }
  return fibonacci(n - 1) + fibonacci(n - 2);
}

export class Stack<T> {
  private readonly items: T[] = [];

  push(item: T): void {
    this.items.push(item);
  }

  pop(): T | undefined {
    return this.items.pop();
  }

  get size(): number {
    return this.items.length;
  }
}

const numbers = [1, 2, 3, 4, 5];
const doubled = numbers.map((value) => value * 2);
const total = numbers.reduce((sum, value) => sum + value, 0);
console.log("total", total, "doubled", doubled);

async function fetchJson(url: string): Promise<unknown> {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error("request failed: " + response.status);
  }
  return response.json();
}

interface User {
  id: string;
  name: string;
  email?: string;
}

for (let i = 0; i < 10; i++) {
  if (i % 2 === 0) {
    continue;
  }
  console.log(i);
}

def add(a, b):
    return a + b


def fibonacci(n):
    if n < 2:
        return n
    return fibonacci(n - 1) + fibonacci(n - 2)


class Stack:
    def __init__(self):
        self.items = []

    def push(self, item):
        self.items.append(item)

    def pop(self):
        return self.items.pop()

    def __len__(self):
        return len(self.items)


import json
import os

def load_config(path):
    with open(path, "r", encoding="utf-8") as handle:
        return json.load(handle)

if __name__ == "__main__":
    for name in os.listdir("."):
        print(name)

#include <stdio.h>

int main(int argc, char **argv) {
    for (int i = 0; i < argc; i++) {
        printf("%s\n", argv[i]);
    }
    return 0;
}

fn main() {
    let numbers = vec![1, 2, 3];
    let total: i32 = numbers.iter().sum();
    println!("total = {}", total);
}

package main

import "fmt"

func main() {
    values := []int{1, 2, 3}
    for index, value := range values {
        fmt.Println(index, value)
    }
}

SELECT id, name, email FROM users WHERE active = 1 ORDER BY name;

{"name": "wisp", "version": "1.0.0", "private": true, "scripts": {"test": "mocha"}}
<div class="container"><p>Hello, world!</p></div>
`;
