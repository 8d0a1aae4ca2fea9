module.exports = require('./_rest.js')["run"];
