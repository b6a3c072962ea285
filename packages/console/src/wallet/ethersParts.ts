// The parts of ethers the wallet needs, as one lazily imported module: importing "ethers" itself
// dynamically would make the whole library one chunk that the sign-in page preloads.
export { BrowserProvider, getAddress } from "ethers";
