// Fault: on its 2nd turn answers moves.at(count), one past the end of the listed moves:
// std::out_of_range is thrown and not caught, so the C++ runtime prints "terminate called
// after throwing ..." and aborts (SIGABRT). Compiled by the test: g++ -O1 -o BOT FILE.
#include <iostream>
#include <string>
#include <vector>

int main() {
    std::string line;
    std::getline(std::cin, line);  // the colour
    for (int turn = 1;; turn++) {
        for (int i = 0; i < 9; i++)  // the board and the last move
            if (!std::getline(std::cin, line)) return 0;
        std::getline(std::cin, line);
        std::vector<std::string> moves(std::stoi(line));
        for (auto &move : moves) std::getline(std::cin, move);
        std::cout << moves.at(turn < 2 ? 0 : moves.size()) << std::endl;
    }
}
