// Fault: at the end of input it goes on reading a turn regardless: std::stoi("") throws
// std::invalid_argument, nothing catches it, and the runtime aborts (SIGABRT) after
// "terminate called after throwing ...". Plays correctly until then (the first listed
// move). Compiled by the test: g++ -O1 -o BOT FILE.
#include <iostream>
#include <string>
#include <vector>

int main() {
    std::string line;
    std::getline(std::cin, line);  // the colour
    for (;;) {
        for (int i = 0; i < 9; i++) std::getline(std::cin, line);  // the board and the last move
        std::getline(std::cin, line);
        std::vector<std::string> moves(std::stoi(line));  // throws at the end of input
        for (auto &move : moves) std::getline(std::cin, move);
        std::cout << moves[0] << std::endl;
    }
}
