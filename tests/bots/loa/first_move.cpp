// None: a correct C++ bot (the first listed move), for the platform's envelope: it must pass
// inside CodinGame's 768 MB. Compiled by the test: g++ -O1 -o BOT FILE.
#include <iostream>
#include <string>

int main() {
    std::string line;
    if (!std::getline(std::cin, line)) return 0;  // the colour
    for (;;) {
        for (int i = 0; i < 9; i++)
            if (!std::getline(std::cin, line)) return 0;  // the board and the last move
        if (!std::getline(std::cin, line)) return 0;
        int count = std::stoi(line);
        std::string first, move;
        for (int i = 0; i < count; i++) {
            std::getline(std::cin, move);
            if (i == 0) first = move;
        }
        std::cout << first << std::endl;
    }
}
