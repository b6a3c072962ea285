// One FastInterface for the service and the deployer's contract reads.
export { FastInterface } from "@points/deployer";
